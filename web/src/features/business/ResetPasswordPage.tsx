import { useEffect } from "react";
import { failureText } from "../../api/client";
import { ResetPasswordForm } from "../../components/ResetPasswordForm";
import { resetBusinessPassword } from "./api/reset-password";
import { EMAIL_REQUIRED, PASSWORDS_DIFFER, PASSWORD_REQUIRED, RESET_DONE } from "./messages";

/** /business/reset-password?token=...: a business account's emailed link (the shared ResetPasswordForm). */
export function BusinessResetPasswordPage() {
  useEffect(() => {
    document.title = "Reset password · Store dashboard · Locator";
  }, []);
  return (
    <ResetPasswordForm
      title="Set a new dashboard password"
      send={resetBusinessPassword}
      check={({ email, password, confirmation }) => {
        if (email.trim() === "") return EMAIL_REQUIRED;
        if (password === "") return PASSWORD_REQUIRED;
        if (password !== confirmation) return PASSWORDS_DIFFER;
        return null;
      }}
      onDone={() => RESET_DONE}
      onFailed={(e) => failureText(e, "The server could not be reached.")}
      back={{ to: "/business", label: "Go to the store dashboard" }}
    />
  );
}
