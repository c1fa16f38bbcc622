import { useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { resetPassword } from "./api/reset-password";
import { RESET_DONE, RESET_FAILED } from "./messages";
import { tokenFromSearch } from "../../lib/linkToken";

/**
 * /reset-password?token=...: the emailed link. The token is read after the first "=" of the
 * query. The server also needs the account's email, which the link does not carry (anything
 * appended to the query would become part of the token), so the page asks for it.
 * Only the equality of the two passwords is checked; when they differ nothing happens.
 */
export function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const token = tokenFromSearch(location.search);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirmation || busy) return;
    setBusy(true);
    try {
      await resetPassword({ email: email.trim(), password, token });
    } catch {
      setBusy(false);
      window.alert(RESET_FAILED);
      return;
    }
    window.alert(RESET_DONE);
    void navigate("/");
  };

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center p-6">
      <h1 className="text-2xl font-semibold text-gray-900">Set a new password</h1>
      <form onSubmit={(e) => void onSubmit(e)} className="mt-6 flex flex-col gap-4">
        <Field label="Email" type="text" inputMode="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
        />
        <Button type="submit" disabled={busy}>
          Reset password
        </Button>
      </form>
      <Link to="/" className="mt-6 text-sm font-medium text-emerald-800 underline">
        Back to the locator
      </Link>
    </main>
  );
}
