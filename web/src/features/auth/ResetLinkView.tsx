import { useViewFocus } from "./useViewFocus";
import { DialogTitle } from "../../components/ui/dialog";
import { usePopup } from "../../lib/session";
import { LinkButton } from "./LinkButton";

/** After a reset request: the title is spelled "Check yor email" as in the original. */
export function ResetLinkView() {
  const { openPopup, email } = usePopup();
  const ref = useViewFocus<HTMLDivElement>();
  return (
    <div ref={ref}>
      <DialogTitle>Check yor email</DialogTitle>
      <p className="mt-2 text-gray-700">
        We have sent a password reset link to <strong className="break-all">{email}</strong>.
      </p>
      <p className="mt-4 text-sm">
        <LinkButton data-autofocus onClick={() => openPopup("sign-in")}>Back to login page</LinkButton>
      </p>
    </div>
  );
}
