import { useNavigate } from "react-router";
import { ResetPasswordForm } from "../../components/ResetPasswordForm";
import { toast } from "../../lib/toast";
import { resetPassword } from "./api/reset-password";
import { PASSWORDS_DIFFER, RESET_DONE, RESET_FAILED, RESET_NO_TOKEN } from "./messages";

/**
 * /reset-password?token=...: a member's emailed link (the shared ResetPasswordForm). Only the
 * equality of the two passwords is checked, said under the confirmation. The spec's answers are
 * the app's toasts; success goes to the locator.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  return (
    <ResetPasswordForm
      title="Set a new password"
      send={resetPassword}
      mismatch={PASSWORDS_DIFFER}
      noToken={RESET_NO_TOKEN}
      onDone={() => {
        toast.success(RESET_DONE);
        void navigate("/");
        return undefined;
      }}
      onFailed={() => {
        toast.error(RESET_FAILED);
        return undefined;
      }}
      back={{ to: "/", label: "Back to the locator" }}
    />
  );
}
