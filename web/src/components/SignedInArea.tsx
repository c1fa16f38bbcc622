import type { UseQueryResult } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { failureText } from "../api/client";
import { BrandHeader } from "./Brand";
import { Button } from "./ui/button";
import { FormError } from "./ui/field";
import { Spinner } from "./ui/spinner";
import { useTitle } from "../lib/documentMeta";

interface Props<T> {
  /** The screen's name in the document title ("{title} · Store Locator"). */
  title: string;
  /** Who is signed in: null when signed out (lib/session/hint.ts signedInOptions). */
  account: UseQueryResult<T | null>;
  /** The sign-in screen. */
  signIn: ReactNode;
  /** Links beside the brand in the header (e.g. "Claim your store"). */
  links?: ReactNode;
  /** The area's screens for the signed-in account. */
  children: (account: T) => ReactNode;
}

/**
 * An area behind its own sign-in (/admin, /business): the product's header (logo and name back
 * to the locator), then while the account loads a spinner, the sign-in screen when signed out,
 * or the area's screens.
 */
export function SignedInArea<T>({ title, account, signIn, links, children }: Props<T>) {
  useTitle(title);
  let body: ReactNode;
  if (account.isPending) body = <Spinner label="Loading…" className="p-6" />;
  else if (account.isError) {
    body = (
      <main className="p-6">
        <FormError>{`Could not reach the server: ${failureText(account.error)}`}</FormError>
      </main>
    );
  } else if (account.data === null) body = signIn;
  else body = children(account.data);
  return (
    <div className="min-h-dvh bg-gray-50">
      <BrandHeader links={links} />
      {body}
    </div>
  );
}

interface BarProps {
  /** The screen's heading. */
  title: string;
  /** The signed-in account's email. */
  email: string;
  /** Ends the session and leaves the area; a failure is shown beside the button. */
  signOut: () => Promise<void>;
  /** The area's own navigation, between the heading and the account. */
  children?: ReactNode;
}

/** The top bar of a signed-in area's screens: heading, navigation, who is signed in, sign out. */
export function SignedInBar({ title, email, signOut, children }: BarProps) {
  const [error, setError] = useState<string | null>(null);
  const onSignOut = async () => {
    setError(null);
    try {
      await signOut();
    } catch (e) {
      setError(`Could not sign out: ${failureText(e)}`);
    }
  };
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 bg-white px-4 py-3">
      <h1 className="text-lg font-semibold text-gray-900">{title}</h1>
      {children}
      <div className="flex flex-wrap items-center gap-3 text-sm text-gray-700">
        <span className="break-all">Signed in as {email}</span>
        <Button variant="outline" onClick={() => void onSignOut()}>
          Sign out
        </Button>
      </div>
      {error && <FormError>{error}</FormError>}
    </div>
  );
}
