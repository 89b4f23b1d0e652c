// react-filepond 7 ships no type declarations; its component takes FilePond's own options as props
// and exposes the pond's methods on the instance.
declare module 'react-filepond' {
  import type { Component } from 'react';
  import type { FilePond as FilePondInstance, FilePondOptions } from 'filepond';

  export type FilePondProps = FilePondOptions;

  export class FilePond extends Component<FilePondProps> {
    removeFile: FilePondInstance['removeFile'];
    getFiles: FilePondInstance['getFiles'];
  }

  export { registerPlugin, FileStatus } from 'filepond';
}
