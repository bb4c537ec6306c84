/** Spanish of app/messages/profile.ts (the profile screens and the empty window), in the terms of docs/glossary-es.md. */

export const yourInfoPrompt = "Asegúrese de que su nombre esté escrito correctamente abajo. Usaremos esta información para cotejar sus resultados de prueba.";
export const dobFormatFirstTime = "La fecha de nacimiento debe tener el formato mm/dd/aaaa";
export const dobFormat = "La fecha de nacimiento debe tener el formato mm/dd/aaaa";
export const under18 = "Los usuarios deben tener al menos 18 años para usar el producto";
export const firstNameRequired = "El nombre es obligatorio";
export const lastNameRequired = "El apellido es obligatorio";
export const dobRequired = "La fecha de nacimiento es obligatoria";
export const postalCodeRequired = "El código postal es obligatorio";
export const postalCodeInvalid = "Ingrese un código postal válido.";
export const profileCreateFailed = "Hubo un problema al crear su perfil.";
export const profileCreateError = "Hubo un error al completar su registro.";
export const profileSaveFailed = "Hubo un problema al guardar la información de su perfil.";
export const infoChangeWarning = "Cambiar su información puede invalidar las pruebas verificadas existentes que se cotejaron con ella.";
export const emptyWindow = "No hay resultados de prueba válidos dentro de las ventanas seguras requeridas.";

export const firstNameLabel = "Nombre";
export const lastNameLabel = "Apellido";
export const dateFormatHint = "MM/DD/AAAA";
export const yourInfoTitle = "Su información";
export const yourInfoPageTitle = "Su información · SafeWindow";
export const finishButton = "Terminar";
export const personalInfoPageTitle = "Información personal · SafeWindow";
export const changeYourInfoButton = "Cambiar su información";
export const backToSettingsLink = "Volver a Mis ajustes";
export const welcomePageTitle = "Bienvenida · SafeWindow";
export const welcomeTitle = (firstName: string) => `¡Le damos la bienvenida, ${firstName}!`;
export const welcomeProductIdLead = "Su ID de producto de SafeWindow es";
export const welcomeProductIdEnd = ". Sus amigos pueden encontrarle con él.";
export const howItWorksTitle = "Cómo funciona";
export const howItWorksSteps = {
  upload: "Suba el PDF original de su prueba de COVID-19 que le entregó su laboratorio.",
  check: "Verificamos que sea un original de un laboratorio que conocemos y que sea suyo: su nombre, apellido y fecha de nacimiento deben coincidir exactamente.",
  window: "Un resultado negativo abre su ventana segura: una fecha de validez fuerte y una débil, contadas desde la toma de su muestra.",
} as const;
export const howWeCountLink = "Lea cómo calculamos las ventanas seguras";
export const shareTitle = "Compártala con sus amigos";
export const shareText = "Otras personas pueden solicitar seguirle. Cuando usted lo confirme, verán la tarjeta de su ventana segura (nunca su fecha de nacimiento), y usted podrá seguirlas también.";
export const getStartedLabel = "Comience aquí";
