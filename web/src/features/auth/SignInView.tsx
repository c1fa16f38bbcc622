import { useViewFocus } from "./useViewFocus";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "../../components/ui/button";
import { DialogTitle } from "../../components/ui/dialog";
import { Field, FormError } from "../../components/ui/field";
import { usePopup, useSignIn } from "../../lib/session";
import { email, required, z } from "../../lib/validation";
import { LinkButton } from "./LinkButton";
import { EMAIL_REQUIRED, PASSWORD_REQUIRED, SIGN_IN_FAILED, SIGNED_UP } from "./messages";

const schema = z.object({ email: email(EMAIL_REQUIRED), password: required(PASSWORD_REQUIRED) });
type Values = z.infer<typeof schema>;

/**
 * Sign in: on success the session holds the customer and the favourites, and the popup closes
 * (useSignIn). Opened with an email, it comes from a successful sign-up: it says so, fills the
 * email in and starts on the password.
 */
export function SignInView() {
  const { openPopup, email: signedUp } = usePopup();
  const signIn = useSignIn();
  const [failed, setFailed] = useState(false);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: signedUp ?? "", password: "" },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = async (values: Values) => {
    setFailed(false);
    try {
      await signIn.mutateAsync(values);
    } catch {
      // Any failure (status or network) reads the same; "Invalid email or password" only flags it.
      setFailed(true);
    }
  };

  const ref = useViewFocus<HTMLDivElement>();
  return (
    <div ref={ref}>
      <DialogTitle>Welcome back</DialogTitle>
      <p className="mt-2 text-gray-700">Sign in to access an enhanced shopping experience.</p>
      {signedUp && (
        <p role="status" className="mt-3 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {SIGNED_UP}
        </p>
      )}
      <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="mt-4 flex flex-col gap-3">
        {/* Just signed up: the email is filled in, so the password comes first. */}
        <Field label="Email" type="text" inputMode="email" autoComplete="email" data-autofocus={!signedUp || undefined} error={errors.email?.message} {...register("email")} />
        <Field label="Password" type="password" autoComplete="current-password" data-autofocus={!!signedUp || undefined} error={errors.password?.message} {...register("password")} />
        {failed && <FormError>{SIGN_IN_FAILED}</FormError>}
        <Button type="submit" disabled={isSubmitting}>
          Enter
        </Button>
      </form>
      <p className="mt-4 text-sm text-gray-800">
        Not a member? <LinkButton onClick={() => openPopup("sign-up")}>Join us</LinkButton>
      </p>
      <p className="mt-2 text-sm text-gray-800">
        Forgot password? <LinkButton onClick={() => openPopup("reset-password")}>Reset</LinkButton>
      </p>
    </div>
  );
}
