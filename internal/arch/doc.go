// Package arch keeps the dependency arrows pointing down (ADR 056): its
// test reads every Go file's imports and fails on an arrow that points up.
package arch
