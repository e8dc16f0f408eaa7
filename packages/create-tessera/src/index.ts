/**
 * @module create-tessera
 * The project generator behind `npm create tessera`, callable from code.
 */
export { type CreatedProject, createProject } from './create-project.ts'
