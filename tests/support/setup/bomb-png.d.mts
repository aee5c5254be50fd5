/** A PNG whose header claims width×height pixels (see bomb-png.mjs). */
export function bombPng(width: number, height: number): Buffer
