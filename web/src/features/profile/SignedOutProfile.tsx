import { useEffect } from "react";
import { BrandHeader } from "../../components/Brand";
import { Button } from "../../components/ui/button";
import { usePopup } from "../../lib/session";
import { SIGN_IN_TO_SEE_PROFILE, SIGN_IN_TO_SEE_PROFILE_TEXT } from "./messages";

/**
 * /profile for a visitor who is not signed in: the page stays (its own title and heading, the
 * app's header) with the sign-in popup open on top; signing in there shows the profile in place.
 * The server's first frame of /profile (internal/httpapi/frames/profile.html) draws the same
 * markup, so keep the two in step.
 */
export function SignedOutProfile({ openOnArrival }: { openOnArrival: boolean }) {
  const { openPopup } = usePopup();
  useEffect(() => {
    if (openOnArrival) openPopup("sign-in");
  }, [openOnArrival, openPopup]);
  return (
    <div className="min-h-dvh bg-gray-50">
      <BrandHeader />
      <main className="mx-auto max-w-md px-4 py-12 text-center">
        <h1 className="text-2xl font-semibold text-gray-900">{SIGN_IN_TO_SEE_PROFILE}</h1>
        <p className="mt-2 text-gray-700">{SIGN_IN_TO_SEE_PROFILE_TEXT}</p>
        <Button className="mt-6" onClick={() => openPopup("sign-in")}>
          Sign in
        </Button>
      </main>
    </div>
  );
}
