/** Spanish of app/messages/profile.ts (the profile screens and the empty window), in the terms of docs/glossary-es.md. */

export const yourInfoPrompt = "Asegúrese de que su nombre esté escrito correctamente abajo. Usaremos esta información para comparar sus resultados de prueba.";
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
export const infoChangeWarning = "Cambiar su información puede invalidar las pruebas verificadas existentes que la usaron para la comparación.";
export const emptyWindow = "No hay resultados de prueba válidos dentro de las ventanas seguras requeridas.";
