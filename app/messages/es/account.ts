/**
 * Spanish of app/messages/account.ts (registration, Sign In, account confirmation, password reset),
 * in the terms of docs/glossary-es.md.
 */
import { productName } from "./shell.ts";

export const signInTitle = "Iniciar sesión";
export const signInPageTitle = `Iniciar sesión · ${productName}`;
export const emailLabel = "Correo electrónico";
export const passwordLabel = "Contraseña";
export const submitButton = "Enviar";
export const forgotPasswordLink = "¿Olvidó su contraseña?";
export const createAccountLink = "Crear cuenta";
export const passwordFormat = "La contraseña debe contener al menos una letra mayúscula, una minúscula, un número y un carácter especial.";
export const passwordsDoNotMatch = "Las contraseñas no coinciden.";
export const passwordTooShort = "Las contraseñas deben tener al menos 8 caracteres.";
export const registerEmailRequired = "Debe ingresar su correo electrónico para registrarse";
export const registerPasswordRequired = "Debe ingresar una contraseña para registrarse";
export const emailInvalid = "Ingrese una dirección de correo electrónico válida.";
export const emailUnavailable = "Esa dirección de correo electrónico no está disponible. Para iniciar sesión con su cuenta existente, presione «Atrás» y luego «Iniciar sesión».";
export const acceptTermsRequired = "Acepte los Términos del servicio para crear una cuenta.";
export const acceptPrivacyRequired = "Acepte la Política de privacidad para crear una cuenta.";
export const loginEmailRequired = "Debe ingresar su correo electrónico para iniciar sesión";
export const loginPasswordRequired = "Debe ingresar una contraseña para iniciar sesión";
export const confirmAccountPasswordRequired = "Debe ingresar una contraseña para confirmar su cuenta";
export const missingEmailParameter = "Falta el parámetro de correo electrónico";
export const missingTokenParameter = "Falta el parámetro de código";
export const resetLinkIncomplete = "Esta página necesita el enlace completo de su correo para restablecer la contraseña. Abra el enlace de nuevo o solicite uno nuevo.";
export const inviteLinkIncomplete = "Esta página necesita el enlace completo de su correo de invitación. Abra de nuevo el enlace de ese correo.";
export const resetEmailRequired = "Debe ingresar su correo electrónico para enviar un recordatorio de contraseña";
export const newPasswordRequired = "Debe ingresar una contraseña nueva";
export const loginFailed = "No se pudo iniciar sesión. Revise su nombre de usuario y su contraseña.";
export const registerServerError = "Error inesperado del servidor al registrar al usuario";
export const registerUnknownError = "Error desconocido al registrar al usuario";
export const loginAfterRegistrationFailed = "No se pudo iniciar la sesión del usuario después del registro.";
export const confirmationEmailSendFailed = "No se pudo enviar el correo de confirmación.";
export const confirmAccountFailed = "Hubo un problema al confirmar su cuenta.";
export const passwordChangeFailed = "Hubo un problema al cambiar su contraseña.";
export const emailConfirmFailed = "Hubo un problema al confirmar su correo electrónico. Haga clic en el botón de abajo para volver a enviar la invitación por correo.";
export const emailConfirmFailedShort = "No se pudo confirmar el correo electrónico.";
export const checkConfirmationFailed = "No se pudo comprobar la confirmación del correo electrónico.";
export const sendEmailConfirmationFailed = "No se pudo enviar la confirmación por correo electrónico.";
export const resetRequested = `Si el correo electrónico ingresado está asociado a una cuenta de ${productName}, se enviará a esa dirección un mensaje para restablecer la contraseña.`;
export const resetSucceeded = "La contraseña se cambió correctamente. Ya puede volver a su aplicación para iniciar sesión.";
export const accountConfirmed = "Gracias. El correo electrónico de la cuenta está confirmado y la contraseña está establecida.";
export const emailConfirmed = "Su dirección de correo electrónico está confirmada.";
export const emailConfirming = "Confirmando su correo electrónico…";
export const confirmationEmailSent = "Le enviamos un nuevo correo de confirmación.";
export const checkYourEmail = "Revise su correo electrónico y haga clic en el enlace que le enviamos para confirmar su dirección.";
export const createAccountMissing = (missing: string[]) =>
  missing.length === 0 ? "" : `${missing.length === 1 ? "Falta" : "Faltan"}: ${new Intl.ListFormat("es", { type: "conjunction" }).format(missing)}.`;

export const createAccountPageTitle = `Crear cuenta · ${productName}`;
export const confirmPasswordLabel = "Confirme la contraseña";
export const acceptTermsLead = "Acepto los";
export const acceptPrivacyLead = "Acepto la";
export const termsOfServiceLink = "Términos del servicio";
export const privacyPolicyLink = "Política de privacidad";
export const backLink = "Atrás";
export const createAccountMissingParts = {
  lead: "Faltan: ",
  leadOne: "Falta: ",
  and: " y ",
  email: "su correo electrónico",
  password: "una contraseña que cumpla la regla",
  confirmPassword: "la misma contraseña en Confirme la contraseña",
  terms: "aceptar los Términos del servicio",
  privacy: "aceptar la Política de privacidad",
} as const;
export const changePasswordTitle = "Cambiar la contraseña";
export const changePasswordPageTitle = `Cambiar la contraseña · ${productName}`;
export const chooseNewPasswordFor = (email: string) => `Elija una nueva contraseña para ${email}.`;
export const chooseNewPassword = "Elija una nueva contraseña para su cuenta.";
export const sendNewResetLink = "Enviar un nuevo enlace para restablecer la contraseña";
export const setPasswordTitle = "Establecer la contraseña";
export const setPasswordPageTitle = `Establecer la contraseña · ${productName}`;
export const choosePasswordFor = (email: string) => `Elija la contraseña para ${email}.`;
export const choosePassword = "Elija la contraseña para su cuenta.";
export const checkYourEmailTitle = "Revise su correo electrónico";
export const checkYourEmailPageTitle = `Revise su correo electrónico · ${productName}`;
export const sentToLead = "Lo enviamos a";
export const sentToEnd = ". Esta página avanzará sola cuando se confirme su dirección.";
export const resendEmailButton = "Reenviar el correo";
export const confirmEmailTitle = "Confirmar el correo electrónico";
export const confirmEmailPageTitle = `Confirmar el correo electrónico · ${productName}`;
export const emailConfirmedTitle = "Correo electrónico confirmado";
export const resendConfirmationButton = "Reenviar la confirmación";
export const resetPasswordTitle = "Restablecer la contraseña";
export const resetPasswordPageTitle = `Restablecer la contraseña · ${productName}`;
export const sendResetEmailButton = "Enviar el correo para restablecer la contraseña";
export const loginLink = "Iniciar sesión";
