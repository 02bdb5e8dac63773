# shared settings
COMMON_FLAGS = -lineinfo -DCOMMON_DEF=1
