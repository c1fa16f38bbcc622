import { Store } from "lucide-react";
import type { ReactNode } from "react";
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

/** The header bar of the screens outside the locator: the brand, and links (if any) at the right. */
export function BrandHeader({ links }: { links?: ReactNode }) {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="flex h-14 items-center gap-3 px-3 md:px-4">
        <Brand />
        {links && <div className="ml-auto flex items-center gap-3 text-sm">{links}</div>}
      </div>
    </header>
  );
}
