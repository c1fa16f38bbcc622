import { useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { customerKeys } from "../../api/keys";
import { ConfirmEmailForm } from "../../components/ConfirmEmailForm";
import { confirmMemberEmail } from "./api/confirm-email";
import { CONFIRM_EMAIL_BUTTON, CONFIRM_EMAIL_HEADING, CONFIRM_EMAIL_NO_TOKEN, CONFIRM_EMAIL_TEXT, PASSWORD_REQUIRED } from "./messages";

/**
 * /verify-email?token=...: the link the profile's "Send confirmation link" mails, followed with
 * the member's password (the shared ConfirmEmailForm); the server's answer is shown.
 */
export function VerifyEmailPage() {
  const queryClient = useQueryClient();
  return (
    <ConfirmEmailForm
      title="Confirm your email"
      heading={CONFIRM_EMAIL_HEADING}
      text={CONFIRM_EMAIL_TEXT}
      noToken={CONFIRM_EMAIL_NO_TOKEN}
      button={CONFIRM_EMAIL_BUTTON}
      passwordRequired={PASSWORD_REQUIRED}
      confirm={async (body) => {
        const text = await confirmMemberEmail(body);
        void queryClient.invalidateQueries({ queryKey: customerKeys.me });
        return text;
      }}
      footer={
        <Link to="/profile" className="text-sm font-medium text-emerald-800 underline">
          Go to my account
        </Link>
      }
    />
  );
}
