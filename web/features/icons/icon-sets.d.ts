// The Font Awesome sets imported apart from the app's named icons (named-icon.tsx): the packages' own modules.
declare module '@fortawesome/free-solid-svg-icons?sets' {
  export const fas: object;
}
declare module '@fortawesome/free-brands-svg-icons?sets' {
  export const fab: object;
}
