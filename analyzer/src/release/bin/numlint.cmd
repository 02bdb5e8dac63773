@echo off
rem numlint launcher of the release zip for Windows: runs lib\numlint.jar with Java 17 or later.
setlocal
set "NUMLINT_JAR=%~dp0..\lib\numlint.jar"
if defined JAVA_HOME (set "NUMLINT_JAVA=%JAVA_HOME%\bin\java.exe") else (set "NUMLINT_JAVA=java")
rem NUMLINT_MAX_HEAP: the Java heap limit (default 512m, 2g for validation), as in bin/numlint
rem the serial collector for a scan, the default collector for validation (as bin/numlint)
set "NUMLINT_HEAP_DEFAULT=512m"
set "NUMLINT_GC=-XX:+UseSerialGC"
for %%a in (%*) do (
  if "%%~a"=="validate" (set "NUMLINT_HEAP_DEFAULT=2g" & set "NUMLINT_GC=")
  if "%%~a"=="--validate" (set "NUMLINT_HEAP_DEFAULT=2g" & set "NUMLINT_GC=")
)
if not defined NUMLINT_MAX_HEAP set "NUMLINT_MAX_HEAP=%NUMLINT_HEAP_DEFAULT%"
"%NUMLINT_JAVA%" -Xmx%NUMLINT_MAX_HEAP% -XX:TieredStopAtLevel=1 %NUMLINT_GC% -Xlog:disable -Xlog:all=warning:stderr -jar "%NUMLINT_JAR%" %*
exit /b %ERRORLEVEL%
