import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router";
import { failureText } from "../../api/client";
import { customerKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { confirmMemberEmail } from "./api/confirm-email";
import { CONFIRM_EMAIL_BUTTON, CONFIRM_EMAIL_HEADING, CONFIRM_EMAIL_NO_TOKEN, CONFIRM_EMAIL_TEXT, PASSWORD_REQUIRED } from "./messages";
import { tokenFromSearch } from "../../lib/linkToken";

/**
 * /verify-email?token=...: the link the profile's "Send confirmation link" mails. Following it
 * needs the member's password, so a link someone else asked for proves nothing for them.
 */
export function VerifyEmailPage() {
  const location = useLocation();
  const queryClient = useQueryClient();
  const token = tokenFromSearch(location.search);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = "Confirm your email · Locator";
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (password === "") return setError(PASSWORD_REQUIRED);
    setBusy(true);
    try {
      setDone(await confirmMemberEmail({ token, password }));
      void queryClient.invalidateQueries({ queryKey: customerKeys.me });
    } catch (e) {
      setError(failureText(e, "The server could not be reached."));
    }
    setBusy(false);
  };

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold text-gray-900">{CONFIRM_EMAIL_HEADING}</h1>
      {token === "" ? (
        <FormError>{CONFIRM_EMAIL_NO_TOKEN}</FormError>
      ) : done ? (
        <p role="status" className="text-emerald-900">
          {done}
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-label={CONFIRM_EMAIL_HEADING}>
          <p className="text-gray-700">{CONFIRM_EMAIL_TEXT}</p>
          <Field label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          {error && <FormError>{error}</FormError>}
          <Button type="submit" disabled={busy}>
            {CONFIRM_EMAIL_BUTTON}
          </Button>
        </form>
      )}
      <Link to="/profile" className="text-sm font-medium text-emerald-800 underline">
        Go to my account
      </Link>
    </main>
  );
}
