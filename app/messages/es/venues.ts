/** Spanish of app/messages/venues.ts (venues, check-in, My Fun), in the terms of docs/glossary-es.md. */
import { productName } from "./shell.ts";

export const mobileNumberRequired = "El número de celular es obligatorio";
export const businessNameRequired = "El nombre de la empresa es obligatorio";
export const addressRequired = "La dirección es obligatoria";
export const cityRequired = "La ciudad es obligatoria";
export const stateRequired = "El estado es obligatorio";
export const phoneRequired = "El teléfono es obligatorio";
export const locationNameRequired = "El nombre del local es obligatorio";
export const phoneInvalid = "Ingrese un número de teléfono de 10 dígitos, como (206) 555-0123.";
export const timeInvalid = "Ingrese una hora como HH:MM, de 00:00 a 24:00.";
export const under21 = "Debe tener al menos 21 años.";
export const businessInfoSaveFailed = "No pudimos guardar la información de su empresa. Inténtelo de nuevo.";
export const locationCreateFailed = "No pudimos crear el local. Inténtelo de nuevo.";
export const locationSaveFailed = "No pudimos guardar el local. Inténtelo de nuevo.";
export const billingLoadFailed = "No pudimos cargar sus datos de facturación. Inténtelo de nuevo.";
export const subscriptionFailed = "No pudimos cambiar su suscripción. Inténtelo de nuevo.";
export const invoiceRetryFailed = "No pudimos volver a cobrar esta factura. Inténtelo de nuevo.";
export const roleChangeFailed = "No pudimos cambiar el rol de esta persona. Inténtelo de nuevo.";
export const locationsTitle = "Locales";
export const myFunTitle = "Mis salidas";
export const checkinTitle = "Registro de entrada al local";
export const locationSearchFailed = "No pudimos buscar locales. Inténtelo de nuevo.";
export const zipInvalid = "Ingrese un código ZIP de 5 dígitos.";
export const noLocationsFound = "No se encontraron locales dentro de esa distancia. Pruebe con una distancia mayor.";
export const positionUnavailable = "No pudimos obtener su ubicación. Busque por código ZIP.";
export const noVisits = "Todavía no hay visitas. Cuando un local compruebe su ventana segura, la visita aparecerá aquí.";
export const ratingFailed = "No pudimos guardar su calificación. Inténtelo de nuevo.";
export const ratingSaved = "Gracias por calificar su visita.";
export const checkinCodeFailed = "No pudimos generar un código de registro. Inténtelo de nuevo.";
export const checkinCodeHint = (minutes: number) =>
  `Muestre este código en el local. Funciona una sola vez, durante ${minutes} minutos, y solo muestra su nombre y si su ventana segura está abierta.`;
export const checkinLookupFailed = "No pudimos comprobar este código. Inténtelo de nuevo.";
export const checkinCodeNotFound = "No existe ese código de registro. Verifique el código con el visitante.";
export const checkinTooManyAttempts = (minutes: number) =>
  `Se ingresaron demasiados códigos que no existen. Inténtelo de nuevo en ${minutes} ${minutes === 1 ? "minuto" : "minutos"}.`;
export const checkinCodeInvalid = "Un código de registro tiene 6 letras y dígitos.";
export const checkInFailed = "No pudimos registrar la entrada de este visitante. Inténtelo de nuevo.";
export const checkedIn = "Entrada registrada.";
export const notLocationAdministrator = "Usted no administra este local.";
export const strongWindowSeen = "Ventana segura fuerte";
export const weakWindowSeen = "Ventana segura débil";
export const noOpenWindowSeen = "Ninguna ventana segura abierta";

export const myFunPageTitle = `Mis salidas · ${productName}`;
export const checkinPageTitle = `Registro de entrada al local · ${productName}`;
export const locationsPageTitle = `Locales · ${productName}`;
export const visitsLabel = "Visitas";
export const checkedLabel = "El local vio:";
export const visitCheckedIn = "Entrada registrada";
export const visitNotCheckedIn = "Entrada no registrada";
export const yourRatingOf = (venue: string) => `Su calificación de ${venue}`;
export const stars = (count: number) => `${count} ${count === 1 ? "estrella" : "estrellas"}`;
export const saveRating = "Guardar calificación";
export const ratingRequired = "Elija de 1 a 5 estrellas.";
export const windowUntil = "Hasta";
export const noOpenWindowVisitor = "Este visitante no tiene ninguna ventana segura abierta.";
export const checkedAt = "comprobada";
export const checkInButton = "Registrar entrada";
export const locationLabel = "Local";
export const visitorCodeLabel = "Código de registro del visitante";
export const nextVisitor = "Siguiente visitante";
export const lookUp = "Consultar";
export const checkinPageHint = (minutes: number) =>
  `El visitante muestra un código de su página Mi ventana segura. Funciona una vez, durante ${minutes} minutos. Usted verá el nombre del visitante y si su ventana segura está abierta, nunca su fecha de nacimiento.`;
export const zipCodeLabel = "Código ZIP";
export const withinLabel = "A menos de";
export const milesChoice = (miles: number) => `${miles} millas`;
export const locationSearchButton = "Buscar";
export const findingYou = "Buscando su ubicación…";
export const nearMe = "Cerca de mí";
export const locationsWithin = (count: number, miles: number, zip: string) =>
  `${count} ${count === 1 ? "local" : "locales"} a menos de ${miles} millas de ${zip}.`;
export const locationsNearYou = (count: number, miles: number) => `${count} ${count === 1 ? "local" : "locales"} a menos de ${miles} millas de su ubicación.`;
export const locationsFoundLabel = "Locales encontrados";
export const distanceMiles = (miles: string) => `${miles} millas`;
