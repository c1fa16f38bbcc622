import { Store } from "lucide-react";
import { Link } from "react-router";

/** The product's logo and name, a link back to the locator (every screen's header). */
export function Brand() {
  return (
    <Link to="/" className="flex shrink-0 items-center gap-1.5 font-semibold text-emerald-800">
      <Store aria-hidden="true" className="size-6" />
      <span>Store Locator</span>
    </Link>
  );
}
