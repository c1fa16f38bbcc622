import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router";
import { businessKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Outcome, useAction } from "../../components/ui/outcome";
import { ConfirmEmailForm } from "../../components/ConfirmEmailForm";
import { confirmBusinessEmail, resendBusinessProof } from "./api/email-proof";
import {
  CONFIRM_BUTTON,
  CONFIRM_HEADING,
  CONFIRM_NO_TOKEN,
  CONFIRM_PAGE_TEXT,
  PASSWORD_REQUIRED,
  RESEND,
  confirmPrompt,
} from "./messages";
import type { BusinessAccount } from "./types";

/**
 * What a signed-in account whose email is not confirmed sees of the dashboard: the prompt to open
 * the mailed link, a button that mails it again (the server limits it per account), and sign out.
 */
export function ConfirmEmailState({ account, onSignOut }: { account: BusinessAccount; onSignOut: () => void }) {
  const proof = useAction(resendBusinessProof);

  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">{CONFIRM_HEADING}</h1>
      <p className="text-gray-700">{confirmPrompt(account.email)}</p>
      <Outcome notice={proof.notice} failure={proof.failure} />
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => void proof.run()} disabled={proof.busy}>
          {RESEND}
        </Button>
        <Button variant="outline" onClick={onSignOut}>
          Sign out
        </Button>
      </div>
    </main>
  );
}

/**
 * /business/verify?token=...: the mailed link. The password chosen with the sign-up goes with the
 * link, so the page asks for it (the shared ConfirmEmailForm); confirmed, the account is signed in
 * and goes to the dashboard.
 */
export function BusinessVerifyPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <ConfirmEmailForm
      title="Confirm your email · Store dashboard"
      heading={CONFIRM_HEADING}
      text={CONFIRM_PAGE_TEXT}
      noToken={CONFIRM_NO_TOKEN}
      button={CONFIRM_BUTTON}
      passwordRequired={PASSWORD_REQUIRED}
      confirm={async (body) => {
        const account = await confirmBusinessEmail(body);
        queryClient.removeQueries({ queryKey: businessKeys.stores });
        queryClient.setQueryData(businessKeys.me, account);
        void navigate("/business");
        return undefined;
      }}
      footer={
        <Link to="/business" className="text-sm font-medium text-emerald-800 underline">
          Go to the store dashboard
        </Link>
      }
    />
  );
}
