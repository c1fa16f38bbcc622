import { failureText } from "../../api/client";
import { ResetPasswordForm } from "../../components/ResetPasswordForm";
import { resetBusinessPassword } from "./api/reset-password";
import { PASSWORDS_DIFFER, PASSWORD_REQUIRED, RESET_DONE, RESET_NO_TOKEN } from "./messages";

/** /business/reset-password?token=...: a business account's emailed link (the shared ResetPasswordForm). */
export function BusinessResetPasswordPage() {
  return (
    <ResetPasswordForm
      title="Set a new dashboard password"
      send={resetBusinessPassword}
      mismatch={PASSWORDS_DIFFER}
      noToken={RESET_NO_TOKEN}
      check={(password) => (password === "" ? PASSWORD_REQUIRED : null)}
      onDone={() => RESET_DONE}
      onFailed={(e) => failureText(e, "The server could not be reached.")}
      back={{ to: "/business", label: "Go to the store dashboard" }}
    />
  );
}
