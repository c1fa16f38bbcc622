import { pageArea, SignInForm as AreaSignInForm, SignInPage } from "../../components/SignInForm";
import { adminSignIn } from "./api/admin-sign-in";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED } from "./messages";
import type { Moderator } from "./types";

const area = pageArea("Moderator sign-in", adminSignIn, { emailRequired: EMAIL_REQUIRED, passwordRequired: PASSWORD_REQUIRED, failed: SIGN_IN_FAILED });

/** The moderator sign-in page; moderators are created with `locator moderators add EMAIL`. */
export function SignInForm({ onSignedIn }: { onSignedIn: (moderator: Moderator) => void }) {
  return (
    <SignInPage heading="Moderator sign-in" intro="Review store claims before they appear on the map.">
      <AreaSignInForm area={area} onSignedIn={onSignedIn} />
    </SignInPage>
  );
}
