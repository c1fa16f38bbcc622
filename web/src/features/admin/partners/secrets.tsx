import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import { failureText } from "../../../api/client";

/**
 * What the keys and webhooks sections share: a create answers a secret that is shown this once,
 * other changes only refresh the list (queryKey), and a failure is said under the form.
 */
export function useShownOnce(queryKey: QueryKey) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState("");
  const [failure, setFailure] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey });
  /** Runs make; on success shows its secret, calls reset (to empty the form) and refreshes. */
  const create = async (make: () => Promise<{ secret: string }>, reset: () => void, failed: string) => {
    try {
      const made = await make();
      setSecret(made.secret);
      reset();
      setFailure("");
      refresh();
    } catch (e) {
      setFailure(`${failed}: ${failureText(e)}`);
    }
  };
  /** Runs act (a revoke, a removal) and refreshes. */
  const change = async (act: () => Promise<unknown>, failed: string) => {
    try {
      await act();
      refresh();
    } catch (e) {
      setFailure(`${failed}: ${failureText(e)}`);
    }
  };
  return { secret, failure, create, change };
}

/** The secret a create answered, named by `what`; nothing before the first create. */
export function ShownOnce({ what, secret }: { what: string; secret: string }) {
  if (!secret) return null;
  return (
    <p role="status" className="text-sm">
      {what}, shown this once: <code className="font-mono break-all">{secret}</code>
    </p>
  );
}
