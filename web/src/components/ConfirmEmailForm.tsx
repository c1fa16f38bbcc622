import { useState, type FormEvent, type ReactNode } from "react";
import { failureText } from "../api/client";
import { LinkPage, useLinkToken } from "./LinkPage";
import { Button } from "./ui/button";
import { Field, FormError } from "./ui/field";
import { useTitle } from "../lib/documentMeta";

export interface ConfirmEmailFormProps {
  /** The screen's name in the document title ("{title} · Store Locator"). */
  title: string;
  heading: string;
  /** What the page asks, above the password. */
  text: string;
  /** Shown instead of the form when the link has no token. */
  noToken: string;
  button: string;
  /** Shown under the field when the password is empty. */
  passwordRequired: string;
  /** Follows the link with the password: a text to show in place of the form, or undefined when the caller moved on. */
  confirm: (body: { token: string; password: string }) => Promise<string | undefined>;
  /** Below the form (a way back). */
  footer?: ReactNode;
}

/**
 * The page of a mailed confirmation link, for members (/verify-email) and business accounts
 * (/business/verify): following it needs the account's password (a business sign-up's link, the
 * password chosen with it), so a link someone else asked for proves nothing for them. Each area
 * keeps its texts and what follows.
 */
export function ConfirmEmailForm({ title, heading, text, noToken, button, passwordRequired, confirm, footer }: ConfirmEmailFormProps) {
  const token = useLinkToken();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useTitle(title);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (password === "") return setError(passwordRequired);
    setBusy(true);
    try {
      const shown = await confirm({ token, password });
      if (shown === undefined) return;
      setDone(shown);
    } catch (e) {
      setError(failureText(e, "The server could not be reached."));
    }
    setBusy(false);
  };

  return (
    <LinkPage heading={heading} token={token} noToken={noToken} done={done} footer={footer}>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-label={heading}>
          <p className="text-gray-700">{text}</p>
          <Field label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          {error && <FormError>{error}</FormError>}
          <Button type="submit" disabled={busy}>
            {button}
          </Button>
        </form>
    </LinkPage>
  );
}
