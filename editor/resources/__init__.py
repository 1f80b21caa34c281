"""The application icon (``sprawlmap.svg``, ``sprawlmap.png`` at 256 px) and the Linux desktop
launcher (``sprawlmap.desktop``), shipped in the wheel as package data."""
