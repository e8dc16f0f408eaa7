/**
 * @module create-tessera
 * The project generator behind `npm create tessera`, callable from code.
 */
export { type CreatedProject, type CreateProjectOptions, createProject } from './create-project.ts'
