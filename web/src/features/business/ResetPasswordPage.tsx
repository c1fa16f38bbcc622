import { useEffect, useState, type FormEvent } from "react";
import { Link, useLocation } from "react-router";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { resetBusinessPassword } from "./api/reset-password";
import { EMAIL_REQUIRED, PASSWORDS_DIFFER, PASSWORD_REQUIRED, RESET_DONE } from "./messages";

/**
 * /business/reset-password?token=...: the emailed link of a business account. The token is what
 * follows the first "=" of the query; the server also needs the account's email.
 */
export function BusinessResetPasswordPage() {
  const location = useLocation();
  const token = location.search.slice(location.search.indexOf("=") + 1);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (email.trim() === "") return setError(EMAIL_REQUIRED);
    if (password === "") return setError(PASSWORD_REQUIRED);
    if (password !== confirmation) return setError(PASSWORDS_DIFFER);
    setBusy(true);
    try {
      await resetBusinessPassword({ email: email.trim(), password, token });
      setDone(true);
    } catch (e) {
      setError(failureText(e, "The server could not be reached."));
    }
    setBusy(false);
  };

  useEffect(() => {
    document.title = "Reset password · Store dashboard · Locator";
  }, []);

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold text-gray-900">Set a new dashboard password</h1>
      {done ? (
        <p role="status" className="text-emerald-900">
          {RESET_DONE}
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-label="Choose a new password">
          <Field label="Email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
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
      <Link to="/business" className="text-sm font-medium text-emerald-800 underline">
        Go to the store dashboard
      </Link>
    </main>
  );
}
