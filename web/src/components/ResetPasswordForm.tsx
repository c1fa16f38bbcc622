import { useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router";
import { tokenFromSearch } from "../lib/linkToken";
import { Button } from "./ui/button";
import { Field, FormError } from "./ui/field";

export interface ResetPasswordFormProps {
  /** The page's heading. */
  title: string;
  /** Sends email, password and the link's token; throws when the server refuses. */
  send: (body: { email: string; password: string; token: string }) => Promise<unknown>;
  /** Checks before sending: the text to show, or null. Without it, differing passwords do nothing. */
  check?: (form: { email: string; password: string; confirmation: string }) => string | null;
  /** After success: a text to show in place of the form, or undefined when the caller moves on. */
  onDone: () => string | undefined;
  /** After a refusal: a text to show under the form, or undefined when the caller tells it. */
  onFailed: (error: unknown) => string | undefined;
  back: { to: string; label: string };
}

/**
 * The page of an emailed reset link, for every kind of account (members at /reset-password,
 * business accounts at /business/reset-password): email, new password and its confirmation. The
 * token is read after the first "=" of the query; the server also needs the account's email,
 * which the link does not carry (anything appended would become part of the token). Each area
 * keeps its texts and what happens after an answer.
 */
export function ResetPasswordForm({ title, send, check, onDone, onFailed, back }: ResetPasswordFormProps) {
  const location = useLocation();
  const token = tokenFromSearch(location.search);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    const problem = check ? check({ email, password, confirmation }) : password !== confirmation ? "" : null;
    if (problem !== null) return setError(problem === "" ? null : problem);
    setBusy(true);
    try {
      await send({ email: email.trim(), password, token });
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
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold text-gray-900">{title}</h1>
      {done !== null ? (
        <p role="status" className="text-emerald-900">
          {done}
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-label="Choose a new password">
          <Field label="Email" type="email" inputMode="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Field label="New password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          <Field
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
          />
          {error && <FormError>{error}</FormError>}
          <Button type="submit" disabled={busy}>
            Reset password
          </Button>
        </form>
      )}
      <Link to={back.to} className="text-sm font-medium text-emerald-800 underline">
        {back.label}
      </Link>
    </main>
  );
}
