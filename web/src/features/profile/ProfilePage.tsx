import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { customerKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { Outcome, useAction } from "../../components/ui/outcome";
import { Spinner } from "../../components/ui/spinner";
import { useCustomer, useLogout, type Customer } from "../../lib/session";
import { NameForm, PasswordForm, PhoneForm } from "./ProfileForms";
import { requestEmailProof } from "./api/request-email-proof";
import { EMAIL_CONFIRMED, EMAIL_NOT_CONFIRMED, SEND_CONFIRMATION } from "./messages";
import { Section } from "./Section";
import { SignedOutProfile } from "./SignedOutProfile";
import { useTitle } from "../../lib/documentMeta";
import { formatPhone } from "../../lib/phone";

type Editing = "name" | "phone" | "password" | null;

/**
 * /profile, "My account": a sidebar (Profile, Locator, Log out) and the Name, Email (read-only),
 * Phone and Password sections. A signed-out visitor stays on /profile, asked to sign in there
 * (SignedOutProfile, with the sign-in popup open on arrival).
 */
export function ProfilePage() {
  useTitle("Your profile");
  const { loginState, customer } = useCustomer();
  const logout = useLogout();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  // Signing out here leaves for / (useLogout): the popup opens only for a visitor not signed in on this visit.
  const [seenSignedIn, setSeenSignedIn] = useState(false);
  if (loginState === "logged-in" && !seenSignedIn) setSeenSignedIn(true); // state derived while rendering

  if (loginState === "logged-out") return <SignedOutProfile openOnArrival={!seenSignedIn} />;
  if (loginState !== "logged-in" || !customer) {
    return (
      <main className="p-6">
        <Spinner label="Loading your account" />
      </main>
    );
  }

  const toggle = (section: Exclude<Editing, null>) => setEditing((current) => (current === section ? null : section));
  const saved = (next: Customer) => {
    queryClient.setQueryData(customerKeys.me, next);
    setEditing(null);
  };
  const formProps = { customer, onSaved: saved, onDone: () => setEditing(null) };

  return (
    <div className="mx-auto flex min-h-screen max-w-5xl flex-col gap-6 p-4 md:flex-row md:p-8">
      <nav aria-label="Account" className="md:w-48 md:shrink-0">
        <ul className="flex gap-2 md:flex-col">
          <li>
            <Link to="/profile" aria-current="page" className="block rounded-md bg-emerald-50 px-3 py-2 font-medium text-emerald-900">
              Profile
            </Link>
          </li>
          <li>
            <Link to="/" className="block rounded-md px-3 py-2 text-gray-800 hover:bg-gray-100">
              Locator
            </Link>
          </li>
          <li>
            <Button variant="ghost" className="w-full justify-start px-3 py-2 text-base font-normal" onClick={() => void logout()}>
              Log out
            </Button>
          </li>
        </ul>
      </nav>
      <main className="min-w-0 flex-1">
        <h1 className="text-2xl font-semibold text-gray-900">My account</h1>
        <Section title="Name" value={`${customer.first_name} ${customer.last_name}`} editing={editing === "name"} onToggle={() => toggle("name")}>
          <NameForm {...formProps} />
        </Section>
        <section aria-label="Email" className="border-b border-gray-200 py-5">
          <Field label={<span className="text-lg font-semibold">Email</span>} value={customer.email} readOnly />
          <EmailProof verified={customer.email_verified} />
        </section>
        <Section title="Phone" value={formatPhone(customer.phone)} editing={editing === "phone"} onToggle={() => toggle("phone")}>
          <PhoneForm {...formProps} />
        </Section>
        <Section title="Password" value="••••••••" editing={editing === "password"} onToggle={() => toggle("password")}>
          <PasswordForm {...formProps} />
        </Section>
      </main>
    </div>
  );
}

/** Whether the member proved the address, and a button that mails the link while not. */
function EmailProof({ verified }: { verified: boolean }) {
  const proof = useAction(requestEmailProof);

  if (verified) {
    return <p className="mt-2 text-sm font-medium text-emerald-800">{EMAIL_CONFIRMED}</p>;
  }
  return (
    <div className="mt-2 flex flex-col items-start gap-2">
      <p className="text-sm font-medium text-amber-800">{EMAIL_NOT_CONFIRMED}</p>
      <Button variant="outline" onClick={() => void proof.run()} disabled={proof.busy}>
        {SEND_CONFIRMATION}
      </Button>
      <Outcome notice={proof.notice} failure={proof.failure} />
    </div>
  );
}
