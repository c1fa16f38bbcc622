import { ComingSoon } from "../../components/ComingSoon";

export function ReviewsPage() {
  return <ComingSoon title="Reviews" />;
}
