import { Heart, Menu, User, X } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { Brand } from "../../components/Brand";
import { Button } from "../../components/ui/button";
import { cn } from "../../lib/cn";
import { useCustomer, usePopup } from "../../lib/session";

/**
 * Logo, the search boxes (place and product) and the account buttons: Sign in and Sign up, or the
 * favourites and profile icons when signed in. At 767 px or less a burger menu holds the search boxes.
 */
export function Header({ search }: { search: ReactNode }) {
  const { loginState } = useCustomer();
  const { openPopup } = usePopup();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="relative z-30 border-b border-gray-200 bg-white">
      <div className="flex h-14 items-center gap-3 px-3 md:px-4">
        <Brand />
        <div className="hidden max-w-3xl flex-1 md:block">{search}</div>
        <div className="ml-auto flex items-center gap-1.5">
          {loginState === "logged-in" ? (
            <>
              <Button variant="ghost" aria-label="Favorites" onClick={() => openPopup("favorites")} className="p-2">
                <Heart aria-hidden="true" className="size-5" />
              </Button>
              <Link
                to="/profile"
                aria-label="Profile"
                className="inline-flex rounded-md p-2 text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
              >
                <User aria-hidden="true" className="size-5" />
              </Link>
            </>
          ) : (
            <>
              <Button variant="ghost" onClick={() => openPopup("sign-in")} className="px-2 md:px-3">
                Sign in
              </Button>
              <Button onClick={() => openPopup("sign-up")} className="px-2 md:px-3">
                Sign up
              </Button>
            </>
          )}
          <Button
            variant="ghost"
            className="p-2 md:hidden"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="locator-mobile-menu"
            onClick={() => setMenuOpen((v) => !v)}
          >
            {menuOpen ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
          </Button>
        </div>
      </div>
      <div id="locator-mobile-menu" className={cn("border-t border-gray-200 px-3 py-2 md:hidden", !menuOpen && "hidden")}>
        {menuOpen && search}
      </div>
    </header>
  );
}
