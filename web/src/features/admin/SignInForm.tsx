import { failureText } from "../../api/client";
import { SignInForm as AreaSignInForm } from "../../components/SignInForm";
import { adminSignIn } from "./api/admin-sign-in";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED } from "./messages";
import type { Moderator } from "./types";

/** The moderator sign-in page; moderators are created with `locator moderators add EMAIL`. */
export function SignInForm({ onSignedIn }: { onSignedIn: (moderator: Moderator) => void }) {
  return (
    <main className="mx-auto flex w-full max-w-sm flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">Moderator sign-in</h1>
      <p className="text-gray-700">Review store claims before they appear on the map.</p>
      <AreaSignInForm
        onSignedIn={onSignedIn}
        area={{
          label: "Moderator sign-in",
          emailRequired: EMAIL_REQUIRED,
          passwordRequired: PASSWORD_REQUIRED,
          signIn: adminSignIn,
          failure: (error) => `${SIGN_IN_FAILED}: ${failureText(error)}`,
          submit: "Sign in",
          busy: "Signing in…",
          emailField: { type: "email", autoComplete: "username", autoFocus: true },
        }}
      />
    </main>
  );
}
