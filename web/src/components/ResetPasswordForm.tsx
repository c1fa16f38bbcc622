import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { LinkPage, useLinkToken } from "./LinkPage";
import { Button } from "./ui/button";
import { Field, FormError } from "./ui/field";
import { useTitle } from "../lib/documentMeta";

export interface ResetPasswordFormProps {
  /** The page's heading. */
  title: string;
  /** Sends the new password and the link's token; throws when the server refuses. */
  send: (body: { password: string; token: string }) => Promise<unknown>;
  /** Shown under the confirmation when it differs from the password (no call is made). */
  mismatch: string;
  /** Shown instead of the form when the link has no token. */
  noToken: string;
  /** Other checks before sending: the text to show under the form, or null. */
  check?: (password: string) => string | null;
  /** After success: a text to show in place of the form, or undefined when the caller moves on. */
  onDone: () => string | undefined;
  /** After a refusal: a text to show under the form, or undefined when the caller tells it. */
  onFailed: (error: unknown) => string | undefined;
  back: { to: string; label: string };
}

/**
 * The page of an emailed reset link, for every kind of account (members at /reset-password,
 * business accounts at /business/reset-password): the new password and its confirmation, as the
 * spec draws the page. The token (after the first "=" of the query) names the account, so no
 * email is asked. A differing confirmation says so under its field once the field was left or
 * the form sent. Each area keeps its texts and what happens after an answer.
 */
export function ResetPasswordForm({ title, send, mismatch, noToken, check, onDone, onFailed, back }: ResetPasswordFormProps) {
  const token = useLinkToken();
  useTitle(title);
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [confirmationLeft, setConfirmationLeft] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const differs = password !== confirmation;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    setConfirmationLeft(true);
    if (differs) return;
    const problem = check?.(password) ?? null;
    if (problem !== null) return setError(problem);
    setBusy(true);
    try {
      await send({ password, token });
    } catch (e) {
      setBusy(false);
      setError(onFailed(e) ?? null);
      return;
    }
    const text = onDone();
    if (text !== undefined) setDone(text);
    setBusy(false);
  };

  return (
    <LinkPage
      heading={title}
      token={token}
      noToken={noToken}
      done={done}
      footer={
        <Link to={back.to} className="text-sm font-medium text-emerald-800 underline">
          {back.label}
        </Link>
      }
    >
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-label="Choose a new password">
        <Field label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          error={confirmationLeft && differs ? mismatch : undefined}
          onChange={(e) => setConfirmation(e.target.value)}
          onBlur={() => setConfirmationLeft(confirmation !== "")}
        />
        {error && <FormError>{error}</FormError>}
        <Button type="submit" disabled={busy}>
          Reset password
        </Button>
      </form>
    </LinkPage>
  );
}
