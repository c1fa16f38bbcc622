import { ComingSoon } from "../../components/ComingSoon";

export function ClaimPage() {
  return <ComingSoon title="Claim your store" />;
}
