"""The encoding workbench: switch clause families on and off and see what the solver returns.

:mod:`.formula` builds the formula from the switches and reads a model back
(no widgets, no solvers); :mod:`.compute` solves one setting through the
runner; :mod:`.widgets` is the live JupyterLab widget and its static snapshot.
"""
