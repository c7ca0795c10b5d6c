//! Decides, once per parse, where each name lives (Python's rules): a name assigned anywhere in a
//! function body is local to it; a local that an inner function reads becomes a cell; a name
//! neither local nor in an enclosing function is global. The interpreter then reads slots by index.

use std::collections::HashSet;
use std::rc::Rc;

use super::ast::*;

/// Resolves every name of `program`; `intern` maps a global name to its index in the session's table.
pub fn resolve(program: &Program, intern: &mut dyn FnMut(&str) -> u32) {
    let mut resolver = Resolver {
        scopes: Vec::new(),
        intern,
    };
    resolver.block(&program.body, None);
    for index in 0..resolver.scopes.len() {
        resolver.finish_scope(index);
    }
}

struct Scope<'a> {
    decl: &'a FnDecl,
    parent: Option<usize>,
    assigned: Vec<Rc<str>>,
    captured: HashSet<Rc<str>>,
    free: Vec<Rc<str>>,
    local_uses: Vec<&'a Name>,
}

impl Scope<'_> {
    fn is_assigned(&self, name: &str) -> bool {
        self.assigned.iter().any(|n| &**n == name)
    }

    /// Index of each local in its own vector: cells and plain locals are numbered separately.
    fn local_slot(&self, name: &str) -> Slot {
        let mut cells = 0;
        let mut locals = 0;
        for n in &self.assigned {
            let is_cell = self.captured.contains(n);
            if &**n == name {
                return if is_cell {
                    Slot::Cell(cells)
                } else {
                    Slot::Local(locals)
                };
            }
            if is_cell {
                cells += 1;
            } else {
                locals += 1;
            }
        }
        unreachable!("local_slot is asked only for assigned names")
    }
}

struct Resolver<'a, 'i> {
    scopes: Vec<Scope<'a>>,
    intern: &'i mut dyn FnMut(&str) -> u32,
}

impl<'a> Resolver<'a, '_> {
    fn finish_scope(&mut self, index: usize) {
        let scope = &self.scopes[index];
        for name in &scope.local_uses {
            name.slot.set(scope.local_slot(&name.text));
        }
        let cells = scope.captured.len() as u32;
        let frame = FrameShape {
            locals: scope.assigned.len() as u32 - cells,
            cells,
        };
        scope.decl.frame.set(frame);
        let captures = scope
            .free
            .iter()
            .map(|name| {
                let parent =
                    &self.scopes[scope.parent.expect("free names have an enclosing function")];
                match parent.local_slot_if_assigned(name) {
                    Some(Slot::Cell(i)) => Capture::EnclosingCell(i),
                    _ => Capture::EnclosingFree(
                        parent
                            .free
                            .iter()
                            .position(|n| n == name)
                            .expect("captured through the parent") as u32,
                    ),
                }
            })
            .collect();
        *scope.decl.captures.borrow_mut() = captures;
    }

    fn function(&mut self, decl: &'a FnDecl, parent: Option<usize>) {
        for param in &decl.params {
            if let Some(default) = &param.default {
                self.expr(default, parent);
            }
        }
        let mut assigned: Vec<Rc<str>> = Vec::new();
        for param in &decl.params {
            push_unique(&mut assigned, &param.name.text);
        }
        collect_assigned(&decl.body, &mut assigned);
        self.scopes.push(Scope {
            decl,
            parent,
            assigned,
            captured: HashSet::new(),
            free: Vec::new(),
            local_uses: Vec::new(),
        });
        let index = self.scopes.len() - 1;
        for param in &decl.params {
            self.name(&param.name, Some(index));
        }
        self.block(&decl.body, Some(index));
    }

    fn name(&mut self, name: &'a Name, scope: Option<usize>) {
        match scope {
            None => name.slot.set(Slot::Global((self.intern)(&name.text))),
            Some(index) if self.scopes[index].is_assigned(&name.text) => {
                self.scopes[index].local_uses.push(name)
            }
            Some(index) => match self.free_slot(index, &name.text) {
                Some(slot) => name.slot.set(slot),
                None => name.slot.set(Slot::Global((self.intern)(&name.text))),
            },
        }
    }

    /// The `Free` slot of `name` in scope `index`, capturing it through every function between
    /// here and the one that owns it; `None` when no enclosing function owns it (a global).
    fn free_slot(&mut self, index: usize, name: &str) -> Option<Slot> {
        if let Some(i) = self.scopes[index].free.iter().position(|n| &**n == name) {
            return Some(Slot::Free(i as u32));
        }
        let parent = self.scopes[index].parent?;
        if self.scopes[parent].is_assigned(name) {
            self.scopes[parent].captured.insert(name.into());
        } else {
            self.free_slot(parent, name)?;
        }
        let free = &mut self.scopes[index].free;
        free.push(name.into());
        Some(Slot::Free(free.len() as u32 - 1))
    }

    fn block(&mut self, block: &'a Block, scope: Option<usize>) {
        for stmt in block {
            self.stmt(stmt, scope);
        }
    }

    fn stmt(&mut self, stmt: &'a Stmt, scope: Option<usize>) {
        match &stmt.kind {
            StmtKind::Expr(e) => self.expr(e, scope),
            StmtKind::Assign { target, value, .. } => {
                self.expr(value, scope);
                self.name(&target.name, scope);
                for step in &target.path {
                    if let TargetStep::Index(subscripts) = step {
                        subscripts.iter().for_each(|sub| self.subscript(sub, scope));
                    }
                }
                for sub in target.index.iter().flatten() {
                    self.subscript(sub, scope);
                }
            }
            StmtKind::Unpack { names, value } => {
                self.expr(value, scope);
                names.iter().for_each(|n| self.name(n, scope));
            }
            StmtKind::If {
                branches,
                otherwise,
            } => {
                for (cond, body) in branches {
                    self.expr(cond, scope);
                    self.block(body, scope);
                }
                if let Some(body) = otherwise {
                    self.block(body, scope);
                }
            }
            StmtKind::While { cond, body } => {
                self.expr(cond, scope);
                self.block(body, scope);
            }
            StmtKind::For { var, iter, body } => {
                self.expr(iter, scope);
                self.name(var, scope);
                self.block(body, scope);
            }
            StmtKind::FnDef { name, func } => {
                self.name(name, scope);
                self.function(func, scope);
            }
            StmtKind::Return(value) => {
                if let Some(e) = value {
                    self.expr(e, scope)
                }
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Command { .. } => {}
        }
    }

    fn subscript(&mut self, sub: &'a Subscript, scope: Option<usize>) {
        match sub {
            Subscript::Index(e) => self.expr(e, scope),
            Subscript::Slice { start, stop, step } => {
                for e in [start, stop, step].into_iter().flatten() {
                    self.expr(e, scope);
                }
            }
        }
    }

    fn expr(&mut self, expr: &'a Expr, scope: Option<usize>) {
        match &expr.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Imaginary(_)
            | ExprKind::None
            | ExprKind::Ellipsis => {}
            ExprKind::Name(name) => self.name(name, scope),
            ExprKind::List(items) => items.iter().for_each(|e| self.expr(e, scope)),
            ExprKind::Lambda(decl) => self.function(decl, scope),
            ExprKind::Unary(_, e) | ExprKind::Not(e) => self.expr(e, scope),
            ExprKind::Compare { first, rest, .. } => {
                self.expr(first, scope);
                for (_, e) in rest {
                    self.expr(e, scope);
                }
            }
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::And(lhs, rhs)
            | ExprKind::Or(lhs, rhs) => {
                self.expr(lhs, scope);
                self.expr(rhs, scope);
            }
            ExprKind::Call { callee, args } => {
                self.expr(callee, scope);
                args.iter().for_each(|a| self.expr(&a.value, scope));
            }
            ExprKind::Index { target, subscripts } => {
                self.expr(target, scope);
                subscripts.iter().for_each(|s| self.subscript(s, scope));
            }
            ExprKind::Attr { target, .. } => self.expr(target, scope),
        }
    }
}

impl Scope<'_> {
    fn local_slot_if_assigned(&self, name: &str) -> Option<Slot> {
        self.is_assigned(name).then(|| self.local_slot(name))
    }
}

fn push_unique(names: &mut Vec<Rc<str>>, name: &Rc<str>) {
    if !names.iter().any(|n| n == name) {
        names.push(name.clone());
    }
}

/// Names bound in a function body, not looking inside nested functions.
fn collect_assigned(block: &Block, out: &mut Vec<Rc<str>>) {
    for stmt in block {
        match &stmt.kind {
            StmtKind::Assign { target, .. } if target.index.is_none() => {
                push_unique(out, &target.name.text)
            }
            StmtKind::Unpack { names, .. } => names.iter().for_each(|n| push_unique(out, &n.text)),
            StmtKind::For { var, body, .. } => {
                push_unique(out, &var.text);
                collect_assigned(body, out);
            }
            StmtKind::FnDef { name, .. } => push_unique(out, &name.text),
            StmtKind::If {
                branches,
                otherwise,
            } => {
                for (_, body) in branches {
                    collect_assigned(body, out);
                }
                if let Some(body) = otherwise {
                    collect_assigned(body, out);
                }
            }
            StmtKind::While { body, .. } => collect_assigned(body, out),
            _ => {}
        }
    }
}
