/** Spanish of app/messages/settings.ts (My Settings), in the terms of docs/glossary-es.md. */

export const userNameTaken = "Ese nombre de usuario o correo electrónico no está disponible.";
export const userNameInvalid = "El nombre de usuario debe ser una dirección válida.";
export const userNameValidationFailed = "Hubo un error al validar la dirección de correo electrónico.";
export const userNameChangeFailed = "Hubo un error interno al cambiar el nombre de usuario.";
export const settingsPasswordChangeFailed = "Hubo un problema al cambiar su contraseña. Revise cómo escribió su contraseña actual.";
export const currentPasswordRequired = "Debe ingresar su contraseña actual";
export const currentPasswordWrong = "Esa no es su contraseña actual.";
export const newUserNameRequired = "Debe ingresar la nueva dirección de correo electrónico";
export const passwordChanged = "Su contraseña se cambió.";
export const userNameChanged = "Su dirección de correo electrónico se cambió. Confirme la nueva dirección desde el correo que le enviamos.";
export const profileSaved = "Su información se guardó.";
export const signOutEverywhere = "Cerrar sesión en todas partes";
export const signOutEverywhereHint = "Cierra su sesión en todos los dispositivos y navegadores, incluido este.";
export const timeZoneAutomatic = "Automática";
export const timeZoneSaved = "Las horas ahora se muestran en la zona horaria que usted eligió.";
export const timeZoneAutomaticSaved = "Las horas ahora se muestran en su zona horaria detectada automáticamente.";
export const timeZoneUnknown = "Elija una zona horaria de la lista.";
export const timeZoneHint = "La opción automática usa la zona horaria de este navegador, o la de su código postal cuando el navegador no la indica. Lo que elija aquí se aplica en este dispositivo.";
export const timeZoneSources = {
  setting: "según lo elegido aquí",
  browser: "según este navegador",
  postalCode: "según su código postal",
  default: "la predeterminada de SafeWindow; su código postal no indica ninguna",
} as const;
export const languageTitle = "Idioma";
export const languageHint = "El idioma de las páginas en este dispositivo. Sin una elección, usamos el idioma de su navegador.";
export const languageSave = "Guardar";
export const yourDataTitle = "Sus datos";
export const yourDataHint = "Un archivo ZIP con su perfil, cada resultado de prueba con su imagen y su PDF original, sus reclamaciones y las personas que usted sigue y que le siguen.";
export const downloadMyData = "Descargar mis datos";
export const deleteAccountTitle = "Eliminar cuenta";
export const deleteAccountHint =
  "Elimina su cuenta, su perfil, cada resultado de prueba con sus imágenes y PDF, sus reclamaciones y las personas que usted sigue y que le siguen, y cierra su sesión en todas partes. Esto no se puede deshacer.";
export const deleteAccountConfirm = "Ingrese su contraseña para eliminar su cuenta y todos sus datos. Esto no se puede deshacer.";
export const deleteAccountButton = "Eliminar mi cuenta";
export const accountDeleted = "Se eliminaron su cuenta y todos sus datos. Le enviamos una confirmación a su dirección de correo electrónico.";
export const deleteAccountFailed = "No pudimos eliminar su cuenta en este momento. No se eliminó nada. Inténtelo de nuevo.";
export const deleteAccountIncomplete = "Sus datos se eliminaron, pero no pudimos cerrar su cuenta en este momento. Inicie sesión e inténtelo de nuevo para terminar.";

export const settingsTitle = "Mis ajustes";
export const settingsPageTitle = "Mis ajustes · SafeWindow";
export const personalInfoTitle = "Información personal";
export const fullNameLabel = "Nombre";
export const dateOfBirthLabel = "Fecha de nacimiento";
export const postalCodeLabel = "Código postal";
export const changeButton = "Cambiar";
export const changePersonalInfoLabel = "Cambiar la información personal";
export const changePasswordLabel = "Cambiar la contraseña";
export const userNameTitle = "Nombre de usuario o correo electrónico";
export const changeUserNameLabel = "Cambiar el nombre de usuario o el correo electrónico";
export const productIdTitle = "ID de producto";
export const reviewsCardHint = "Las reclamaciones que esperan la revisión de un proveedor, y las decisiones tomadas.";
export const checkinCardHint = "Verifique la ventana segura de un visitante en la puerta de un local que usted administra, con el código que le muestre.";
export const openScreen = (screen: string) => `Abrir ${screen}`;
export const accountTitle = "Cuenta";
export const localDataTitle = "Datos locales";
export const localDataHint = "Cierra su sesión y olvida la dirección de correo electrónico y las opciones guardadas en este dispositivo.";
export const wipeButton = "Borrar";
export const currentPasswordLabel = "Contraseña actual";
export const newPasswordLabel = "Nueva contraseña";
export const confirmNewPasswordLabel = "Confirme la nueva contraseña";
export const updateButton = "Actualizar";
export const newEmailLabel = "Nuevo correo electrónico";
export const timeZoneTitle = "Zona horaria";
export const timeZoneShownIn = "Las horas se muestran en";
export const timeZoneLabel = "Zona horaria";
