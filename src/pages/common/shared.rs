//! [`Shared`]: a computed value handed from a page to its panels. Props
//! compare it by identity (a new value is a new computation), so a panel
//! re-renders when the computation was redone, without comparing large
//! traces, runs or matrices element by element.

use std::ops::Deref;
use std::rc::Rc;

/// A shared, immutable computed value.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    /// Wraps a freshly computed value.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}
