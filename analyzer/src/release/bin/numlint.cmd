@echo off
rem numlint launcher of the release zip for Windows: runs lib\numlint.jar with Java 17 or later.
setlocal
set "NUMLINT_JAR=%~dp0..\lib\numlint.jar"
if defined JAVA_HOME (set "NUMLINT_JAVA=%JAVA_HOME%\bin\java.exe") else (set "NUMLINT_JAVA=java")
"%NUMLINT_JAVA%" -XX:TieredStopAtLevel=1 -Xlog:disable -Xlog:all=warning:stderr -jar "%NUMLINT_JAR%" %*
exit /b %ERRORLEVEL%
