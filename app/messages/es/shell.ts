/**
 * Spanish of app/messages/shell.ts (the frame every page shows and the messages any screen can show),
 * in the terms of docs/glossary-es.md.
 */

export const productName = "SafeWindow";
export const introTagline = "Suba el resultado de su prueba de COVID-19 de su laboratorio, vea cuánto dura su ventana segura y compártala con las personas que usted elija.";
export const unexpectedError = "Error inesperado";
export const unknownError = (detail: string) => `Error desconocido: ${detail}`;
export const notFound = "Lo sentimos, esa página no existe.";
export const checkingAccount = "Estamos comprobando que todo esté en orden...";
export const accountLookupFailed = "Hubo un error al consultar la información de su cuenta";
export const nameTooLong = "Use como máximo 100 caracteres.";
export const passwordTooLong = "Use como máximo 1024 caracteres.";
export const linkTooLong = "Este enlace es demasiado largo. Regrese e inténtelo de nuevo.";
export const passwordRuleHint = "Al menos 8 caracteres, con una letra mayúscula y una minúscula, un número y uno de !@#$%^&*.";
export const upstreamUnavailable = "El servicio no respondió. Inténtelo de nuevo en un minuto.";
export const sessionExpired = "Su sesión terminó. Inicie sesión de nuevo.";
export const serverError = "Algo salió mal de nuestra parte. Inténtelo de nuevo en un minuto.";
export const tooManyAttempts = (minutes: number) => `Demasiados intentos. Inténtelo de nuevo en ${minutes} ${minutes === 1 ? "minuto" : "minutos"}.`;
export const controlCharacters = "Esto contiene caracteres que no se pueden escribir. Escríbalo de nuevo.";
export const crossSiteRefused = "Ese formulario se envió desde otro sitio, así que no hicimos nada. Use las páginas de SafeWindow.";
export const loadFailed = "No se pudo cargar esta página";

export const appDescription = "Suba el resultado de su prueba de COVID-19 y comparta su ventana segura.";
export const skipToContent = "Saltar al contenido";
export const homeLinkLabel = `Inicio de ${productName}`;
export const logoutButton = "Cerrar sesión";
export const goToStartPage = "Ir a la página de inicio";
export const cookieConsentLabel = "Consentimiento de cookies";
export const cookieConsentText = `${productName} usa cookies para mantener su sesión iniciada y recordar sus opciones en este dispositivo. No usamos cookies de publicidad ni de seguimiento.`;
export const acceptButton = "Aceptar";
export const declineButton = "Rechazar";
export const confirmButton = "Confirmar";
export const cancelButton = "Cancelar";
export const continueButton = "Continuar";
export const saveButton = "Guardar";
export const tryAgainLink = "Inténtelo de nuevo";
export const mainNavigationLabel = "Principal";
export const currentTabMark = " (actual)";
export const notFoundPageTitle = `Página no encontrada · ${productName}`;
export const tabLabels = {
  SafeWindow: "Ventana segura",
  MyTests: "Mis pruebas",
  MyFun: "Mis salidas",
  Locations: "Locales",
  Friends: "Personas",
  Settings: "Ajustes",
} as const;

export const bodyWithoutLength = "Su navegador envió el formulario de una manera que no podemos aceptar. Inténtelo de nuevo.";
export const formBodyTooLarge = "Eso es más de lo que acepta este formulario. Regrese y acorte lo que escribió.";
export const requestUnreadable = "No pudimos leer esa solicitud. Regrese e inténtelo de nuevo.";
