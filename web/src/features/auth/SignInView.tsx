import { useViewFocus } from "./useViewFocus";
import { SignInForm } from "../../components/SignInForm";
import { DialogTitle } from "../../components/ui/dialog";
import { usePopup, useSignIn } from "../../lib/session";
import { LinkButton } from "./LinkButton";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED, SIGNED_UP } from "./messages";

/**
 * Sign in: on success the session holds the customer and the favourites, and the popup closes
 * (useSignIn). Opened with an email, it comes from a successful sign-up: it says so, fills the
 * email in and starts on the password. Any failure (status or network) reads the same: "Invalid
 * email or password" only flags it.
 */
export function SignInView() {
  const { openPopup, email: signedUp } = usePopup();
  const signIn = useSignIn();
  const ref = useViewFocus<HTMLDivElement>();
  return (
    <div ref={ref}>
      <DialogTitle>Welcome back</DialogTitle>
      <p className="mt-2 text-gray-700">Sign in to access an enhanced shopping experience.</p>
      {signedUp && (
        <p role="status" className="mt-3 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {SIGNED_UP}
        </p>
      )}
      {/* Just signed up: the email is filled in, so the password comes first. */}
      <SignInForm
        defaultEmail={signedUp ?? ""}
        area={{
          emailRequired: EMAIL_REQUIRED,
          passwordRequired: PASSWORD_REQUIRED,
          signIn: (body) => signIn.mutateAsync(body),
          failure: () => SIGN_IN_FAILED,
          submit: "Enter",
          emailField: { type: "text", inputMode: "email", autoComplete: "email", "data-autofocus": !signedUp || undefined },
          passwordField: { "data-autofocus": !!signedUp || undefined },
          className: "mt-4 flex flex-col gap-3",
        }}
      />
      <p className="mt-4 text-sm text-gray-800">
        Not a member? <LinkButton onClick={() => openPopup("sign-up")}>Join us</LinkButton>
      </p>
      <p className="mt-2 text-sm text-gray-800">
        Forgot password? <LinkButton onClick={() => openPopup("reset-password")}>Reset</LinkButton>
      </p>
    </div>
  );
}
