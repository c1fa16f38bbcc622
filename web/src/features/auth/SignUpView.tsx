import { useViewFocus } from "./useViewFocus";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ChangeEvent } from "react";
import { useForm } from "react-hook-form";
import { Button } from "../../components/ui/button";
import { DialogTitle } from "../../components/ui/dialog";
import { Field, FormError } from "../../components/ui/field";
import { usePopup } from "../../lib/session";
import { phoneInputFilter } from "../../lib/phone";
import { email, memberPhone, newPassword, required, z } from "../../lib/validation";
import { signUp } from "./api/sign-up";
import { LinkButton } from "./LinkButton";
import { EMAIL_REQUIRED, FIRST_NAME_REQUIRED, LAST_NAME_REQUIRED, PASSWORD_REQUIRED } from "./messages";

const schema = z.object({
  first_name: required(FIRST_NAME_REQUIRED),
  last_name: required(LAST_NAME_REQUIRED),
  phone: memberPhone(),
  email: email(EMAIL_REQUIRED),
  password: newPassword(PASSWORD_REQUIRED),
});
type Values = z.input<typeof schema>;
type Parsed = z.output<typeof schema>;

/**
 * Sign up: five required fields (native `required` too, but the form is `noValidate` so the
 * spec's messages show, not the browser's). The phone follows the profile's rule (lib/phone.ts:
 * typed as people write it, at most 12 digits) and is sent in its stored form. Success moves to
 * sign in with the email (which confirms the sign-up there); a failure shows the server's message
 * as-is (nothing when it has none).
 */
export function SignUpView() {
  const { openPopup } = usePopup();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(schema),
    defaultValues: { first_name: "", last_name: "", phone: "", email: "", password: "" },
  });
  const { errors, isSubmitting } = formState;
  const phone = register("phone");
  const onPhoneChange = (e: ChangeEvent<HTMLInputElement>) => {
    e.target.value = phoneInputFilter(e.target.value);
    void phone.onChange(e);
  };

  const onSubmit = async (values: Parsed) => {
    setFailure(null);
    try {
      await signUp(values);
      openPopup("sign-in", values.email.trim());
    } catch (error) {
      setFailure(serverMessage(error));
    }
  };

  const ref = useViewFocus<HTMLDivElement>();
  return (
    <div ref={ref}>
      <DialogTitle>BECOME A MEMBER</DialogTitle>
      <p className="mt-2 text-gray-700">Create your Member profile, and get access to an enhanced shopping experience.</p>
      <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="mt-4 flex flex-col gap-3">
        <Field label="First name" required autoComplete="given-name" data-autofocus error={errors.first_name?.message} {...register("first_name")} />
        <Field label="Last name" required autoComplete="family-name" error={errors.last_name?.message} {...register("last_name")} />
        <Field label="Phone" type="tel" inputMode="tel" required autoComplete="tel" error={errors.phone?.message} {...phone} onChange={onPhoneChange} />
        <Field label="Email" type="text" inputMode="email" required autoComplete="email" error={errors.email?.message} {...register("email")} />
        <Field label="Password" type="password" required autoComplete="new-password" error={errors.password?.message} {...register("password")} />
        {failure && <FormError>{failure}</FormError>}
        <Button type="submit" disabled={isSubmitting}>
          Enter
        </Button>
      </form>
      <p className="mt-4 text-sm text-gray-800">
        Already a member? <LinkButton onClick={() => openPopup("sign-in")}>Sign in</LinkButton>
      </p>
    </div>
  );
}

/** The server's message text, or nothing when it sent none (the generic status text is not shown). */
function serverMessage(error: unknown): string | null {
  if (!(error instanceof Error) || error.name !== "ApiError") return null;
  if (/^Request failed with status \d+$/.test(error.message)) return null;
  return error.message || null;
}
