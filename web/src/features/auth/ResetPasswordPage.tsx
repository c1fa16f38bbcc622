import { useNavigate } from "react-router";
import { ResetPasswordForm } from "../../components/ResetPasswordForm";
import { resetPassword } from "./api/reset-password";
import { RESET_DONE, RESET_FAILED } from "./messages";

/**
 * /reset-password?token=...: a member's emailed link (the shared ResetPasswordForm). Only the
 * equality of the two passwords is checked; when they differ nothing happens. The answers are
 * alerts, as the spec says, and success goes to the locator.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  return (
    <ResetPasswordForm
      title="Set a new password"
      send={resetPassword}
      onDone={() => {
        window.alert(RESET_DONE);
        void navigate("/");
        return undefined;
      }}
      onFailed={() => {
        window.alert(RESET_FAILED);
        return undefined;
      }}
      back={{ to: "/", label: "Back to the locator" }}
    />
  );
}
