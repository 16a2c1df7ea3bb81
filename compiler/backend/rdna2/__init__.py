"""The RDNA2 back end: instruction selection, register allocation, the ISA listing."""
