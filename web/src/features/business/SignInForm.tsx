import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { pageArea, SignInForm as AreaSignInForm, SignInPage } from "../../components/SignInForm";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { businessSignIn } from "./api/business-sign-in";
import { requestBusinessReset } from "./api/request-reset";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED } from "./messages";
import type { BusinessAccount } from "./types";

const area = pageArea("Business sign-in", businessSignIn, { emailRequired: EMAIL_REQUIRED, passwordRequired: PASSWORD_REQUIRED, failed: SIGN_IN_FAILED });

/** The dashboard's sign-in, with the email and password given in the claim wizard, and "Forgot password?". */
export function SignInForm({ onSignedIn }: { onSignedIn: (account: BusinessAccount) => void }) {
  const [mode, setMode] = useState<"sign-in" | "forgot">("sign-in");
  return (
    <SignInPage
      heading={mode === "sign-in" ? "Store dashboard" : "Reset your password"}
      intro={
        mode === "sign-in"
          ? "Sign in with the email and password you chose when you claimed your store."
          : "Enter the email of your business account: we send a link to choose a new password."
      }
    >
      {mode === "sign-in" ? <AreaSignInForm area={area} onSignedIn={onSignedIn} /> : <ResetRequestForm />}
      <button
        type="button"
        className="self-start text-sm font-medium text-emerald-800 underline"
        onClick={() => setMode(mode === "sign-in" ? "forgot" : "sign-in")}
      >
        {mode === "sign-in" ? "Forgot password?" : "Back to sign-in"}
      </button>
    </SignInPage>
  );
}

/** "Forgot password?": mails a reset link; the answer is the same whether or not the email has an account. */
function ResetRequestForm() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = email.trim() === "" ? EMAIL_REQUIRED : undefined;
    setError(problem);
    setFailure(null);
    setNotice("");
    if (problem) return;
    setBusy(true);
    try {
      setNotice(await requestBusinessReset(email.trim()));
    } catch (e) {
      setFailure(failureText(e));
    }
    setBusy(false);
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-3" aria-label="Reset password">
      <Field label="Email" type="email" autoComplete="username" autoFocus value={email} error={error} onChange={(e) => setEmail(e.target.value)} />
      {failure && <FormError>{failure}</FormError>}
      <p role="status" className="text-sm text-emerald-900 empty:hidden">
        {notice}
      </p>
      <Button type="submit" disabled={busy}>
        Send the link
      </Button>
    </form>
  );
}
