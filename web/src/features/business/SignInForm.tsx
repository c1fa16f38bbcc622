import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { businessSignIn } from "./api/business-sign-in";
import { requestBusinessReset } from "./api/request-reset";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED } from "./messages";
import type { BusinessAccount } from "./types";


/** The dashboard's sign-in, with the email and password given in the claim wizard, and "Forgot password?". */
export function SignInForm({ onSignedIn }: { onSignedIn: (account: BusinessAccount) => void }) {
  const [mode, setMode] = useState<"sign-in" | "forgot">("sign-in");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      email: email.trim() === "" ? EMAIL_REQUIRED : undefined,
      password: mode === "sign-in" && password === "" ? PASSWORD_REQUIRED : undefined,
    };
    setErrors(found);
    setFailure(null);
    setNotice("");
    if (found.email || found.password) return;
    setBusy(true);
    try {
      if (mode === "sign-in") {
        onSignedIn(await businessSignIn({ email: email.trim(), password }));
        return;
      }
      setNotice(await requestBusinessReset(email.trim()));
    } catch (error) {
      setFailure(mode === "sign-in" ? `${SIGN_IN_FAILED}: ${failureText(error)}` : failureText(error));
    }
    setBusy(false);
  };

  return (
    <main className="mx-auto flex w-full max-w-sm flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">{mode === "sign-in" ? "Store dashboard" : "Reset your password"}</h1>
      <p className="text-gray-700">
        {mode === "sign-in"
          ? "Sign in with the email and password you chose when you claimed your store."
          : "Enter the email of your business account: we send a link to choose a new password."}
      </p>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-3" aria-label={mode === "sign-in" ? "Business sign-in" : "Reset password"}>
        <Field label="Email" type="email" autoComplete="username" autoFocus value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
        {mode === "sign-in" && (
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
        {failure && <FormError>{failure}</FormError>}
        <p role="status" className="text-sm text-emerald-900 empty:hidden">
          {notice}
        </p>
        <Button type="submit" disabled={busy}>
          {mode === "sign-in" ? (busy ? "Signing in…" : "Sign in") : "Send the link"}
        </Button>
      </form>
      <button
        type="button"
        className="self-start text-sm font-medium text-emerald-800 underline"
        onClick={() => {
          setMode(mode === "sign-in" ? "forgot" : "sign-in");
          setFailure(null);
          setNotice("");
          setErrors({});
        }}
      >
        {mode === "sign-in" ? "Forgot password?" : "Back to sign-in"}
      </button>
    </main>
  );
}
