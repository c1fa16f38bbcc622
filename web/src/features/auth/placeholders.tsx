import { DialogTitle } from "../../components/ui/dialog";
import { usePopup } from "../../lib/session";

// Placeholder popup views; issue #7 replaces them with the real forms (spec section 2, "Auth popup").

export function SignInView() {
  const { openPopup } = usePopup();
  return (
    <div>
      <DialogTitle>Welcome back</DialogTitle>
      <p className="mt-2 text-gray-700">Sign in to access an enhanced shopping experience.</p>
      <p className="mt-4 text-sm text-gray-600">Signing in is coming soon.</p>
      <p className="mt-4 text-sm">
        Not a member?{" "}
        <button type="button" className="font-medium text-emerald-800 underline" onClick={() => openPopup("sign-up")}>
          Join us
        </button>
      </p>
    </div>
  );
}

export function SignUpView() {
  const { openPopup } = usePopup();
  return (
    <div>
      <DialogTitle>BECOME A MEMBER</DialogTitle>
      <p className="mt-2 text-gray-700">Create your Member profile, and get access to an enhanced shopping experience.</p>
      <p className="mt-4 text-sm text-gray-600">Signing up is coming soon.</p>
      <p className="mt-4 text-sm">
        Already a member?{" "}
        <button type="button" className="font-medium text-emerald-800 underline" onClick={() => openPopup("sign-in")}>
          Sign in
        </button>
      </p>
    </div>
  );
}

export function ResetPasswordView() {
  return <DialogTitle>Reset your password</DialogTitle>;
}

export function ResetLinkView() {
  return <DialogTitle>Check yor email</DialogTitle>;
}
