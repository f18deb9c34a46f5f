"""The texts players read, in more than one language: the lowest layer of the project.

- i18n: `Msg` (a str that remembers its English template and arguments), `t`, `tn`, `name`,
  `cat`, `lines`, `say`, and the `Language` a text is said in;
- text: `plural` and `noun`, words agreeing with their count.

Every layer may import it (render/ and storage/ included); it imports nothing of the project.
Pure: no I/O (a catalogue is given; reading catalogue files is the platform's, app.i18n).
"""
