import { useViewFocus } from "./useViewFocus";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "../../components/ui/button";
import { DialogTitle } from "../../components/ui/dialog";
import { Field, FormError } from "../../components/ui/field";
import { usePopup } from "../../lib/session";
import { email, z } from "../../lib/validation";
import { requestPasswordReset } from "./api/request-password-reset";
import { LinkButton } from "./LinkButton";
import { EMAIL_REQUIRED, RESET_REQUEST_FAILED } from "./messages";

const schema = z.object({ email: email(EMAIL_REQUIRED) });
type Values = z.infer<typeof schema>;

/** Reset request: emails a link, then shows the reset-link view with the entered email. */
export function ResetRequestView() {
  const { openPopup } = usePopup();
  const [failed, setFailed] = useState(false);
  const { register, handleSubmit, formState } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { email: "" } });
  const { errors, isSubmitting } = formState;

  const onSubmit = async ({ email }: Values) => {
    setFailed(false);
    try {
      await requestPasswordReset(email);
      openPopup("reset-link", email.trim());
    } catch {
      setFailed(true);
    }
  };

  const ref = useViewFocus<HTMLDivElement>();
  return (
    <div ref={ref}>
      <DialogTitle>Reset your password</DialogTitle>
      <p className="mt-2 text-gray-700">Enter your email below</p>
      <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="mt-4 flex flex-col gap-3">
        <Field label="Email" type="text" inputMode="email" autoComplete="email" data-autofocus error={errors.email?.message} {...register("email")} />
        {failed && <FormError>{RESET_REQUEST_FAILED}</FormError>}
        <Button type="submit" disabled={isSubmitting}>
          Reset password
        </Button>
      </form>
      <p className="mt-4 text-sm">
        <LinkButton onClick={() => openPopup("sign-in")}>Back to login page</LinkButton>
      </p>
    </div>
  );
}
