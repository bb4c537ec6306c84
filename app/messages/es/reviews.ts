/** Spanish of app/messages/reviews.ts (the dispute reviewers' screens), in the terms of docs/glossary-es.md. */

export const reviewsTitle = "Revisión de reclamaciones";
export const reviewsEmpty = "No hay reclamaciones pendientes de revisión.";
export const reviewsPromise = "Les decimos a los usuarios que por lo general podemos revisar todas las reclamaciones dentro de las 3 horas siguientes a su envío.";
export const reviewsLimited = (shown: number) => `Se muestran las ${shown} reclamaciones abiertas más antiguas; decida sobre estas para ver el resto.`;
export const reviewDueIn = (duration: string) => `Vence en ${duration}`;
export const reviewOverdueBy = (duration: string) => `Vencida hace ${duration}`;
export const reviewResponseRequired = "Escriba la respuesta que leerá el usuario.";
export const reviewResponseTooLong = "Use como máximo 1000 caracteres.";
export const reviewDecisionRequired = "Elija Aceptar o Rechazar.";
export const reviewFailed = "No pudimos registrar su decisión. Inténtelo de nuevo.";
export const reviewGone = "Esa reclamación ya no está abierta: es posible que otro revisor ya haya decidido sobre ella.";
export const reviewAccepted = (name: string) => `Aceptada: el resultado de ${name} ahora es válido, con su respuesta.`;
export const reviewDeclined = (name: string) => `Rechazada: el resultado de ${name} queda como estaba, con su respuesta.`;
export const reviewHistoryEmpty = "Todavía no se ha decidido ninguna reclamación.";
