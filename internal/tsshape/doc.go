// Package tsshape keeps the admin app and the public components small
// enough to read: its test fails when a file of the admin app is over
// 400 lines or a React component under admin/, components/, pages/ or
// client/ is over 200. The TypeScript compiler's own parser
// (measure.mjs, run with node) finds the components, so a component
// written in any form TypeScript accepts is measured.
package tsshape
