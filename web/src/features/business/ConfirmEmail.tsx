import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { failureText } from "../../api/client";
import { businessKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { tokenFromSearch } from "../../lib/linkToken";
import { confirmBusinessEmail, resendBusinessProof } from "./api/email-proof";
import {
  CONFIRM_BUTTON,
  CONFIRM_HEADING,
  CONFIRM_NO_TOKEN,
  CONFIRM_PAGE_TEXT,
  PASSWORD_REQUIRED,
  RESEND,
  confirmPrompt,
} from "./messages";
import type { BusinessAccount } from "./types";

/**
 * What a signed-in account whose email is not confirmed sees of the dashboard: the prompt to open
 * the mailed link, a button that mails it again (the server limits it per account), and sign out.
 */
export function ConfirmEmailState({ account, onSignOut }: { account: BusinessAccount; onSignOut: () => void }) {
  const [notice, setNotice] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const resend = async () => {
    setBusy(true);
    setNotice("");
    setFailure(null);
    try {
      setNotice(await resendBusinessProof());
    } catch (error) {
      setFailure(failureText(error));
    }
    setBusy(false);
  };

  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">{CONFIRM_HEADING}</h1>
      <p className="text-gray-700">{confirmPrompt(account.email)}</p>
      {failure && <FormError>{failure}</FormError>}
      <p role="status" className="text-sm text-emerald-900 empty:hidden">
        {notice}
      </p>
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => void resend()} disabled={busy}>
          {RESEND}
        </Button>
        <Button variant="outline" onClick={onSignOut}>
          Sign out
        </Button>
      </div>
    </main>
  );
}

/**
 * /business/verify?token=...: the mailed link. The password chosen with the sign-up goes with the
 * link, so the page asks for it; confirmed, the account is signed in and goes to the dashboard.
 */
export function BusinessVerifyPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = tokenFromSearch(location.search);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = "Confirm your email · Store dashboard · Locator";
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (password === "") return setError(PASSWORD_REQUIRED);
    setBusy(true);
    try {
      const account = await confirmBusinessEmail({ token, password });
      queryClient.removeQueries({ queryKey: businessKeys.stores });
      queryClient.setQueryData(businessKeys.me, account);
      void navigate("/business");
      return;
    } catch (e) {
      setError(failureText(e, "The server could not be reached."));
    }
    setBusy(false);
  };

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold text-gray-900">{CONFIRM_HEADING}</h1>
      {token === "" ? (
        <FormError>{CONFIRM_NO_TOKEN}</FormError>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" aria-label={CONFIRM_HEADING}>
          <p className="text-gray-700">{CONFIRM_PAGE_TEXT}</p>
          <Field label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          {error && <FormError>{error}</FormError>}
          <Button type="submit" disabled={busy}>
            {CONFIRM_BUTTON}
          </Button>
        </form>
      )}
      <Link to="/business" className="text-sm font-medium text-emerald-800 underline">
        Go to the store dashboard
      </Link>
    </main>
  );
}
