"""The shared core: hex grid, dice interface, events, rejections, pending decisions."""
