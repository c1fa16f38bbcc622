import { ComingSoon } from "../../components/ComingSoon";

export function ResetPasswordPage() {
  return <ComingSoon title="Set a new password" />;
}
