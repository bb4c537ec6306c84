/** Spanish of app/messages/follow.ts (following, followers, the search), in the terms of docs/glossary-es.md. */

export const followRequestsWaiting = (count: number) => (count === 1 ? "1 persona solicita seguirle." : `${count} personas solicitan seguirle.`);
export const followRequestsHint = "Abra una solicitud para confirmarla o rechazarla.";
export const followCancelFailed = "No se pudo cancelar la solicitud de seguimiento pendiente";
export const followConfirmFailed = "No se pudo confirmar la solicitud de seguimiento";
export const followDeclineFailed = "No se pudo rechazar la solicitud de seguimiento";
export const followDeleteFailed = "No se pudo eliminar al seguidor";
export const followRequestFailed = "No se pudo solicitar seguir a este usuario";
export const unfollowFailed = "No se pudo dejar de seguir a este usuario";
export const searchPlaceholder = "Nombre, ID de producto o correo electrónico";
export const searchTooShort = "Ingrese al menos 3 caracteres para buscar.";
export const searchNoResults = "Nadie coincide con esa búsqueda. Pruebe con un nombre completo, un ID de producto o una dirección de correo electrónico.";
export const searchInvalid = "Escriba la búsqueda de nuevo: contiene caracteres que no se pueden escribir.";
export const followerWindowHidden = (firstName: string) => `Siga a ${firstName} para ver su ventana segura cuando confirme su solicitud.`;
export const followerWindowPending = (firstName: string) => `Verá la ventana segura de ${firstName} cuando confirme su solicitud.`;
